import type { LucideIcon } from 'lucide-react';
import { Activity, RadioTower, ShieldCheck } from 'lucide-react';

type Benefit = { icon: LucideIcon; title: string; text: string };

const BENEFITS: readonly Benefit[] = [
  {
    icon: RadioTower,
    title: 'Instant voice channels',
    text: 'Join a channel and talk with one tap — no dialling, no waiting.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure authentication',
    text: 'Sign in safely; your account and your conversations stay private.',
  },
  {
    icon: Activity,
    title: 'Real-time presence',
    text: 'See at a glance who is around, who is idle and who is speaking.',
  },
];

/** The three benefits of the sign-in landing (spec §2). */
export function Benefits() {
  return (
    <ul className="grid gap-3" aria-label="Why Chirp">
      {BENEFITS.map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex items-start gap-4 rounded-2xl border bg-card p-4 shadow-sm">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary-soft-foreground">
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <div className="grid gap-0.5">
            <h2 className="text-base font-semibold">{title}</h2>
            <p className="text-sm text-muted-foreground">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
