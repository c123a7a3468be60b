import { Check } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/Card';
import { cn } from '../../lib/cn';
import { FREE_TRIAL_DAYS, type Plan } from './plans';

export function PlanCard({ plan, current, onChoose }: { plan: Plan; current: boolean; onChoose: (plan: Plan) => void }) {
  const headingId = `plan-${plan.tier}`;
  return (
    <Card aria-labelledby={headingId} className={cn('flex flex-col', plan.recommended && 'border-primary ring-2 ring-primary/40')}>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle id={headingId}>{plan.name}</CardTitle>
          {plan.recommended && <Badge>Recommended</Badge>}
        </div>
        <CardDescription>
          <span className="text-3xl font-bold text-foreground">${plan.pricePerMonth}</span>
          <span className="text-muted-foreground">/month</span>
        </CardDescription>
        <p className="text-sm text-muted-foreground">{FREE_TRIAL_DAYS}-day free trial</p>
      </CardHeader>
      <CardContent className="flex-1">
        <ul className="flex flex-col gap-2">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2 text-sm">
              <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button className="w-full" variant={plan.recommended ? 'default' : 'outline'} disabled={current} onClick={() => onChoose(plan)}>
          {current ? 'Your current plan' : `Start free trial`}
        </Button>
      </CardFooter>
    </Card>
  );
}
