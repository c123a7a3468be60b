import type { LegalDocument } from './default-legal-texts.js';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A default legal text as a page of its own: readable with no script, in light and dark. */
export function renderLegalPage(document: LegalDocument): string {
  const sections = document.sections
    .map(
      (section) =>
        `<section>\n<h2>${escape(section.heading)}</h2>\n${section.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}\n</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(document.title)} · Chirp</title>
<style>
  :root { color-scheme: light dark; --bg:#f4f7f6; --card:#fff; --fg:#10211d; --muted:#4a5b57; --accent:#0f766e; --border:#c9d6d3; }
  @media (prefers-color-scheme: dark) { :root { --bg:#0b1412; --card:#13201d; --fg:#e6f0ee; --muted:#a3b5b1; --accent:#2dd4bf; --border:#2a3b37; } }
  * { box-sizing: border-box; }
  body { margin:0; background:var(--bg); color:var(--fg); font:16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding:24px 16px; }
  main { max-width:720px; margin:0 auto; background:var(--card); border:1px solid var(--border); border-radius:16px; padding:32px 28px; }
  h1 { margin:0 0 8px; font-size:1.75rem; line-height:1.2; }
  h2 { margin:28px 0 8px; font-size:1.15rem; }
  p { margin:0 0 12px; }
  .intro { color:var(--muted); }
  a { color:var(--accent); font-weight:600; }
  a:focus-visible { outline:3px solid var(--accent); outline-offset:2px; border-radius:4px; }
  nav { margin-top:32px; }
</style>
</head>
<body>
<main>
<h1>${escape(document.title)}</h1>
<p class="intro">${escape(document.intro)}</p>
${sections}
<nav><a href="/">Back to Chirp</a></nav>
</main>
</body>
</html>`;
}
