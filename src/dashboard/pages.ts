const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A small server-rendered page (sign-in form, errors): no script, styles from the dashboard's own stylesheet rules inline. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f7f9;color:#1b1f24;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
.card{background:#fff;border:1px solid #d9dde3;border-radius:12px;padding:2rem;max-width:24rem;width:calc(100% - 2rem);box-sizing:border-box}
h1{font-size:1.4rem;margin:0 0 .5rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #b8bec7;border-radius:8px;font-size:1rem}
button{margin-top:1rem;width:100%;padding:.65rem;border:0;border-radius:8px;background:#1f5eff;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #8fb0ff;outline-offset:2px}
.error{color:#b42318}
</style>
</head>
<body>
${body}
</body>
</html>`;
}
