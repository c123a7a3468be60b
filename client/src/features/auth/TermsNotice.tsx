import type { ServerConfig } from '../../../../protocol/server-config';
import { useServerConfig } from '../server-config/useServerConfig';

const linkClass = 'font-medium text-foreground underline underline-offset-2 hover:text-primary';

/**
 * The landing's terms notice (spec §2): the operator's Terms of Service and Privacy Policy pages
 * (TERMS_URL, PRIVACY_URL), or the server's own default texts. Shown once the server has said which.
 */
export function TermsNotice() {
  return <TermsLinks config={useServerConfig()} />;
}

export function TermsLinks({ config }: { config: ServerConfig | undefined }) {
  if (!config) return null;
  return (
    <p className="text-xs text-muted-foreground">
      By continuing you agree to the{' '}
      <a className={linkClass} href={config.termsUrl} target="_blank" rel="noopener noreferrer">
        Terms of Service
      </a>{' '}
      and{' '}
      <a className={linkClass} href={config.privacyUrl} target="_blank" rel="noopener noreferrer">
        Privacy Policy
      </a>
      .
    </p>
  );
}
