/**
 * Makes everything on the page but `node` (and its ancestors) inert, and answers the undo. An
 * element that was inert already is left as it was, and stays inert after the undo.
 *
 * Written here rather than taken from `aria-hidden`'s `inertOthers`: that package counts its
 * hidings per element across every attribute it sets, so used beside Radix's own `hideOthers` an
 * element's `inert` outlived the list that set it, and the page stayed dead after it closed.
 */
export function inertOthers(node: Element): () => void {
  const made: Element[] = [];
  let current: Element = node;
  while (current.parentElement && current !== current.ownerDocument.body) {
    for (const sibling of Array.from(current.parentElement.children)) {
      if (sibling === current || sibling.hasAttribute('inert')) continue;
      if (sibling.tagName === 'SCRIPT' || sibling.tagName === 'STYLE') continue;
      sibling.setAttribute('inert', '');
      made.push(sibling);
    }
    current = current.parentElement;
  }
  return () => {
    for (const element of made) element.removeAttribute('inert');
  };
}
