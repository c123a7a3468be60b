import { ChevronDown } from 'lucide-react';
import { FAQ } from './plans';

/** Native disclosure widgets: keyboard and screen-reader friendly with no script. */
export function FaqList() {
  return (
    <section aria-labelledby="faq-title" className="flex flex-col gap-3">
      <h2 id="faq-title" className="text-xl font-semibold">
        Frequently asked questions
      </h2>
      {FAQ.map(({ question, answer }) => (
        <details key={question} className="group rounded-xl border border-border bg-card p-4">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-3 font-medium">
            {question}
            <ChevronDown aria-hidden className="size-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none" />
          </summary>
          <p className="mt-2 text-sm text-muted-foreground">{answer}</p>
        </details>
      ))}
    </section>
  );
}
