/**
 * The elements in `root` (itself included) that a CSS animation would move: those carrying one of
 * Tailwind's `animate-*` utilities, with or without a variant such as `motion-safe:`
 * (`animate-none` stops one, so it does not count). jsdom runs no CSS, so the classes are what
 * decides whether the page redraws every frame.
 */
export function animatedElements(root: Element): Element[] {
  return [root, ...root.querySelectorAll('*')].filter((element) =>
    (element.getAttribute('class') ?? '')
      .split(/\s+/)
      .some((name) => /(^|:)animate-(?!none$)/.test(name)),
  );
}

/** Whether every animation in `root` is off under prefers-reduced-motion (a `motion-safe:` one). */
export function animatesOnlyWithMotion(root: Element): boolean {
  return animatedElements(root).every((element) =>
    (element.getAttribute('class') ?? '')
      .split(/\s+/)
      .filter((name) => /(^|:)animate-(?!none$)/.test(name))
      .every((name) => name.startsWith('motion-safe:')),
  );
}
