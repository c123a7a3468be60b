/**
 * The human message inside a request error (`"<status>: <body>"`, spec §8): the body's `message` or
 * `error` field when it is JSON, else the body text. For toasts that explain a refusal.
 */
export function serverMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const body = error.message.replace(/^\d{3}: /, '');
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const { message, error: errorField } = parsed as { message?: unknown; error?: unknown };
      if (typeof message === 'string' && message) return message;
      if (typeof errorField === 'string' && errorField) return errorField;
    }
  } catch {
    // Not JSON: the body text itself is the message.
  }
  return body;
}
