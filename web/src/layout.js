// The page's tabs (Задание · Код · Результаты / Task · Code · Results), the ARIA tabs pattern.
// At ≥ 1024 px (WIDE, and at least 560 px tall: the page is then one screen) the editor is always shown
// on the right and the left column holds Task · Results, scrolling on its own; elsewhere one panel at a
// time. Embed mode has no tabs (the frame follows its content's height) and is compact: the task folded
// behind its heading, a button, and at ≥ 1024 px the results beside the editor, the heatmap under it
// (compact(); styles.css).
// styles.css repeats this query.
export const WIDE = '(min-width: 1024px) and (min-height: 560px)';

/**
 * @param {object} o
 * @param {boolean} o.embed       embed mode or a package: no tabs
 * @param {'task'|'code'} o.first the tab shown first on a narrow screen
 * @returns {{ select(name: string, opts?: { focus?: boolean }): void, showResults(): void, readonly current: string }}
 */
export function createLayout({ embed, first = 'task' }) {
  const tabs = [...document.querySelectorAll('#tabs [role=tab]')];
  const panelOf = (tab) => document.getElementById(tab.getAttribute('aria-controls'));
  const wide = matchMedia(WIDE);
  let current = null;
  if (embed) {
    compact();
    return {
      select() {},
      showResults() {},
      get current() {
        return null;
      },
    };
  }
  document.documentElement.classList.add('tabbed');
  for (const tab of tabs) {
    const panel = panelOf(tab);
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
  }
  // Only the tabs on screen: at WIDE the Code tab is hidden (the editor always shows).
  const shown = () => tabs.filter((tab) => !(wide.matches && tab.dataset.tab === 'code'));

  function select(name, { focus = false } = {}) {
    if (wide.matches && name === 'code') name = current === 'results' ? 'results' : 'task';
    current = name;
    // Focus in a panel about to be hidden (Check pressed on the Code tab) moves to the panel shown.
    const had = tabs.map(panelOf).find((p) => p.contains(document.activeElement));
    for (const tab of tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      // The editor's panel stays shown at WIDE whichever side tab is selected.
      panelOf(tab).hidden = !on && !(wide.matches && tab.dataset.tab === 'code');
      if (on && focus) tab.focus();
    }
    if (had?.hidden)
      document
        .getElementById(tabs.find((tab) => tab.dataset.tab === name).getAttribute('aria-controls'))
        .focus({ preventScroll: true });
    document.documentElement.dataset.tab = name;
  }

  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab.dataset.tab));
    tab.addEventListener('keydown', (e) => {
      const list = shown(),
        i = list.indexOf(tab);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: list.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select(list[(to + list.length) % list.length].dataset.tab, { focus: true });
    });
  }
  // The verdict line sits beside the toolbar where the editor always shows (WIDE); on one-panel screens at
  // the top of Results, the tab Check brings forward, so the sentence is read where the results are.
  const verdict = document.getElementById('verdict');
  const bar = verdict?.parentElement;
  const cheer = document.getElementById('cheer');
  // On one-panel screens the toolbar (Run, Check, Hint…) leaves the Code panel for a row under the tabs, so
  // it is reachable from every tab (styles.css holds it under the sticky tabs, at --tabs-h).
  const tablist = document.getElementById('tabs');
  const work = document.getElementById('editor-panel');
  const placeVerdict = () => {
    if (verdict && cheer) wide.matches ? bar.append(verdict) : cheer.before(verdict);
    if (bar) wide.matches ? work.prepend(bar) : tablist.after(bar);
  };
  // --tabs-h: where the sticky toolbar goes under the tabs; --sticky-h: what both cover at the top of a
  // one-panel screen (a panel scrolled into view keeps its heading below them: styles.css scroll-margin-top).
  const stuck = new ResizeObserver(() => {
    const style = tablist.parentElement.style;
    style.setProperty('--tabs-h', `${tablist.offsetHeight}px`);
    style.setProperty('--sticky-h', `${tablist.offsetHeight + (wide.matches ? 0 : (bar?.offsetHeight ?? 0))}px`);
  });
  stuck.observe(tablist);
  if (bar) stuck.observe(bar);
  wide.addEventListener('change', () => {
    placeVerdict();
    select(current);
  });
  placeVerdict();
  select(wide.matches ? 'task' : first);

  return {
    select,
    /** After Run or Check: the results, where they are not already beside the editor. */
    showResults() {
      select('results');
    },
    get current() {
      return current;
    },
  };
}

/**
 * Embed mode: the task's heading becomes a button that shows or folds the task (folded at first); the
 * heatmap's panel leaves the results' column for a grid cell of its own, last in reading order as before.
 */
function compact() {
  const heat = document.getElementById('heat-panel');
  if (heat) document.querySelector('.layout').append(heat);
  const heading = document.getElementById('task-h');
  const task = document.getElementById('task');
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'task-fold';
  button.className = 'task-fold';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'task');
  const label = document.createElement('span');
  label.dataset.i18n = 'task'; // translated with the page (main.js)
  label.textContent = heading.textContent;
  button.append(label);
  delete heading.dataset.i18n;
  heading.classList.remove('visually-hidden');
  heading.replaceChildren(button);
  task.hidden = true;
  button.addEventListener('click', () => {
    task.hidden = !task.hidden;
    button.setAttribute('aria-expanded', String(!task.hidden));
  });
}
