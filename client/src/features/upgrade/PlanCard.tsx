import { BadgeCheck, Check } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/Card';
import { cn } from '../../lib/cn';
import { FREE_TRIAL_DAYS, type Plan, type PlanStatus } from './plans';

export const YOUR_PLAN = 'Your plan';

export function FeatureList({ features }: { features: readonly string[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {features.map((feature) => (
        <li key={feature} className="flex items-start gap-2 text-sm">
          <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
          {feature}
        </li>
      ))}
    </ul>
  );
}

export function YourPlanBadge() {
  return (
    <Badge variant="success">
      <BadgeCheck aria-hidden="true" />
      {YOUR_PLAN}
    </Badge>
  );
}

const BUTTON_TEXT: Record<PlanStatus, string> = {
  current: 'Your current plan',
  included: 'Included in your plan',
  available: 'Start free trial',
};

export function PlanCard({ plan, status, onChoose }: { plan: Plan; status: PlanStatus; onChoose: (plan: Plan) => void }) {
  const headingId = `plan-${plan.tier}`;
  const current = status === 'current';
  return (
    <Card
      aria-labelledby={headingId}
      className={cn('flex flex-col', (current || (plan.recommended && status === 'available')) && 'border-primary ring-2 ring-primary/40')}
    >
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id={headingId}>{plan.name}</CardTitle>
          <div className="flex gap-1.5">
            {current ? <YourPlanBadge /> : null}
            {plan.recommended && !current ? <Badge>Recommended</Badge> : null}
          </div>
        </div>
        <CardDescription>
          <span className="text-3xl font-bold text-foreground">${plan.pricePerMonth}</span>
          <span className="text-muted-foreground">/month</span>
        </CardDescription>
        <p className="text-sm text-muted-foreground">{FREE_TRIAL_DAYS}-day free trial</p>
      </CardHeader>
      <CardContent className="flex-1">
        <FeatureList features={plan.features} />
      </CardContent>
      <CardFooter>
        <Button
          className="w-full"
          variant={plan.recommended && status === 'available' ? 'default' : 'outline'}
          disabled={status !== 'available'}
          onClick={() => onChoose(plan)}
        >
          {BUTTON_TEXT[status]}
        </Button>
      </CardFooter>
    </Card>
  );
}
