/**
 * Full-page navigation to a server route (sign-in and sign-out are handled by the server, spec §2),
 * as opposed to wouter's client-side `navigate`.
 */
export function navigateToServer(url: string): void {
  window.location.href = url;
}
