import type { ServerConfig } from '../../../../protocol/server-config';
import { useServerConfig } from '../server-config/useServerConfig';

const linkClass = 'font-medium text-foreground underline underline-offset-2 hover:text-primary';

/**
 * The landing's terms notice (spec §2), with the operator's real Terms of Service and Privacy Policy
 * pages (TERMS_URL, PRIVACY_URL). A document the server does not link is not mentioned at all.
 */
export function TermsNotice() {
  return <TermsLinks config={useServerConfig()} />;
}

export function TermsLinks({ config }: { config: ServerConfig | undefined }) {
  const links = [
    config?.termsUrl ? { href: config.termsUrl, text: 'Terms of Service' } : null,
    config?.privacyUrl ? { href: config.privacyUrl, text: 'Privacy Policy' } : null,
  ].filter((link) => link !== null);
  if (links.length === 0) return null;
  return (
    <p className="text-xs text-muted-foreground">
      By continuing you agree to the{' '}
      {links.map((link, index) => (
        <span key={link.href}>
          {index > 0 ? ' and ' : null}
          <a className={linkClass} href={link.href} target="_blank" rel="noopener noreferrer">
            {link.text}
          </a>
        </span>
      ))}
      .
    </p>
  );
}
