import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { defaultPrivacy, defaultTerms, serverFacts } from './default-legal-texts.js';
import { renderLegalPage } from './legal-page.js';

/**
 * Where the default Terms of Service and Privacy Policy live. Server pages outside the app's routes
 * (spec §2 lists /, /settings and /upgrade; like /oidc they are not client routes).
 */
export const LEGAL_PATHS = { terms: '/legal/terms', privacy: '/legal/privacy' } as const;

/** The links of the landing's terms notice: the operator's pages, else the server's own. */
export function legalLinks(config: Config): { termsUrl: string; privacyUrl: string } {
  return {
    termsUrl: config.legal.termsUrl ?? new URL(LEGAL_PATHS.terms, config.publicUrl).href,
    privacyUrl: config.legal.privacyUrl ?? new URL(LEGAL_PATHS.privacy, config.publicUrl).href,
  };
}

/**
 * `GET /legal/terms` and `GET /legal/privacy`: the project's own texts, written for this server's
 * settings. An operator who links their own pages (TERMS_URL, PRIVACY_URL) sends readers there.
 */
export function registerLegalRoutes(app: FastifyInstance): void {
  const { config } = app.ctx;
  const facts = serverFacts(config);
  const pages = [
    { path: LEGAL_PATHS.terms, own: config.legal.termsUrl, html: renderLegalPage(defaultTerms(facts)) },
    { path: LEGAL_PATHS.privacy, own: config.legal.privacyUrl, html: renderLegalPage(defaultPrivacy(facts)) },
  ];
  for (const page of pages) {
    app.get(page.path, { config: { public: true } }, async (_request, reply) => {
      if (page.own) return reply.redirect(page.own, 302);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page.html);
    });
  }
}
