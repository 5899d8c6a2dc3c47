// Small comforts around the editor: a quiet "saved" sign when autosave writes, and after a Check that
// passes every test a short congratulation with the next exercise (the picker's order).

/**
 * The "saved" sign: shown for a moment after each autosave write (not a live region: typing would make a
 * screen reader say it after every pause). → { note() }.
 */
export function savedSign(el, strings) {
  let timer = 0;
  return {
    note() {
      el.textContent = strings().saved;
      el.classList.add('on');
      clearTimeout(timer);
      timer = setTimeout(() => el.classList.remove('on'), 1500);
    },
  };
}

/** Whether a report passed every test (a congratulation; the reference solution offered after a pass: solution.js). */
export const passedAll = (report) =>
  Boolean(report && report.total > 0 && report.passed === report.total && report.status !== 'error');

/** The exercise after `slug` in `list` (the picker's order), or null for the last one. */
export function nextExercise(list, slug) {
  const i = list.findIndex((x) => x.slug === slug);
  return i >= 0 && i + 1 < list.length ? list[i + 1] : null;
}

/**
 * The congratulation under the results: shown when `report` passed every test, else hidden.
 * `href(slug)`: the page's address for another exercise (the same language and track), or null where
 * the page must not lead elsewhere (embed mode, a package: the course decides what comes next).
 */
export function renderCheer(el, { report, list, slug, lang, strings, href }) {
  const all = passedAll(report);
  el.hidden = !all;
  el.replaceChildren();
  if (!all) return;
  const s = strings();
  const next = nextExercise(list, slug);
  el.append(Object.assign(document.createElement('strong'), { textContent: s.cheer(report.total) }));
  if (!href) return;
  el.append(' ');
  if (!next) return void el.append(s.cheerLast);
  el.append(
    `${s.cheerNext} `,
    Object.assign(document.createElement('a'), {
      href: href(next.slug),
      textContent: next.spec.title[lang],
      className: 'next',
    }),
  );
}
