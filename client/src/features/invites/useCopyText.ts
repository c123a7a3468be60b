import { useEffect, useState } from 'react';
import { toast } from '../../ui/toast-store';

/** Spec §9: "Copied!" shows for 2 seconds. */
export const COPIED_LABEL_MS = 2000;

/** Copies text to the clipboard; `copied` is true for 2 s after success, a toast explains a failure. */
export function useCopyText(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = setTimeout(() => setCopiedAt(null), COPIED_LABEL_MS);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopiedAt(Date.now());
    } catch {
      toast({
        title: 'Failed to copy',
        description: 'Please copy the link manually',
        variant: 'destructive',
      });
    }
  };

  return { copied: copiedAt !== null, copy };
}
