import { createHash } from 'node:crypto';

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The built-in provider's sign-in form: Name, Email, Password and a Sign in button. */
export function renderSignInPage(options: {
  action: string;
  error?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
}): string {
  const error = options.error
    ? `<p class="error" role="alert" id="form-error">${escape(options.error)}</p>`
    : '';
  const describedBy = options.error ? ' aria-describedby="form-error"' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign in · Chirp</title>
<style>
  :root { color-scheme: light dark; --bg:#f4f7f6; --card:#fff; --fg:#10211d; --muted:#4a5b57; --accent:#0f766e; --accent-fg:#fff; --border:#c9d6d3; --error:#b42318; }
  @media (prefers-color-scheme: dark) { :root { --bg:#0b1412; --card:#13201d; --fg:#e6f0ee; --muted:#a3b5b1; --accent:#2dd4bf; --accent-fg:#042f2a; --border:#2a3b37; --error:#fda29b; } }
  * { box-sizing: border-box; }
  body { margin:0; min-height:100vh; display:grid; place-items:center; background:var(--bg); color:var(--fg); font:16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding:24px; }
  main { width:100%; max-width:400px; background:var(--card); border:1px solid var(--border); border-radius:16px; padding:32px 28px; box-shadow:0 10px 30px rgb(0 0 0 / .08); }
  h1 { margin:0 0 4px; font-size:1.5rem; }
  p.lead { margin:0 0 24px; color:var(--muted); font-size:.95rem; }
  label { display:block; font-weight:600; margin:16px 0 6px; font-size:.95rem; }
  input { width:100%; padding:12px 14px; border-radius:10px; border:1px solid var(--border); background:transparent; color:inherit; font:inherit; }
  input:focus-visible, button:focus-visible { outline:3px solid var(--accent); outline-offset:2px; }
  .hint { color:var(--muted); font-size:.85rem; margin:6px 0 0; }
  button { margin-top:24px; width:100%; padding:12px; border:0; border-radius:10px; background:var(--accent); color:var(--accent-fg); font:inherit; font-weight:700; cursor:pointer; }
  .error { color:var(--error); background:color-mix(in srgb, var(--error) 12%, transparent); padding:10px 12px; border-radius:10px; margin:0 0 8px; }
</style>
</head>
<body>
<main>
  <h1>Sign in to Chirp</h1>
  <p class="lead">New here? Your first sign-in creates your account.</p>
  ${error}
  <form method="post" action="${escape(options.action)}" novalidate${describedBy}>
    <label for="name">Name</label>
    <input id="name" name="name" autocomplete="name" maxlength="100" value="${escape(options.name ?? '')}">
    <p class="hint">Needed the first time only.</p>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escape(options.email ?? '')}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required minlength="8" maxlength="200">
    <p class="hint">At least 8 characters.</p>
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>`;
}

const AUTO_LOGOUT_SCRIPT =
  "var f=document.getElementById('op.logoutForm');var y=document.createElement('input');" +
  "y.type='hidden';y.name='logout';y.value='yes';f.appendChild(y);f.submit();";

/** The CSP hash that lets exactly the auto-logout script run, and nothing else inline. */
export const AUTO_LOGOUT_SCRIPT_HASH = createHash('sha256').update(AUTO_LOGOUT_SCRIPT).digest('base64');

/** Ends the provider session without asking again: the app's own Logout button already asked. */
export function renderAutoLogoutPage(form: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing out · Chirp</title></head>
<body><p>Signing out…</p>${form}
<script>${AUTO_LOGOUT_SCRIPT}</script>
<noscript><button form="op.logoutForm" name="logout" value="yes">Sign out</button></noscript>
</body></html>`;
}
