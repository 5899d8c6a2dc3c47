// index.html's first script (web/csp.mjs, "A cmi5 launch"): the page's policy as a <meta>, with the
// origins of a cmi5 launch in this URL (its endpoint and fetch) allowed in connect-src, nothing else.
// It runs before any other script or style of the page is fetched; the static <meta> before it already
// holds every other directive, so whatever this adds can only narrow what the page may do.
import { launchConnectSources, pageMetaCsp } from '../page-policy.mjs';

const meta = document.createElement('meta');
meta.httpEquiv = 'Content-Security-Policy';
meta.content = pageMetaCsp(launchConnectSources(location.search));
document.head.append(meta);
