// The page after a dynamic registration: tells the LMS that opened it (a window or a frame) that the
// tool is done, as LTI Dynamic Registration 1.0 §3.7 says; the LMS then closes it.
(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
