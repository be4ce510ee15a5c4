/** The small page the browser shows after it comes back to pig's loopback server. */

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export function callbackPage(ok: boolean, heading: string, detail?: string): string {
  const title = ok ? "pig: signed in" : "pig: sign-in did not complete";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}h1{font-size:1.3rem}p{color:#555}</style></head>
<body><h1>${escapeHtml(heading)}</h1>${detail ? `<p>${escapeHtml(detail)}</p>` : ""}<p>${ok ? "You can close this tab and go back to pig." : "Go back to pig for what to do next."}</p></body></html>
`;
}
