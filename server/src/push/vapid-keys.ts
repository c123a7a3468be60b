import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { vapidKeys } from '../db/schema.js';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point: what browsers get as applicationServerKey. */
  publicKey: string;
  privateKey: string;
}

/**
 * The keys every instance signs pushes with: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, otherwise
 * the database's single row. Instances starting together each propose a fresh pair; the first insert
 * wins (`ON CONFLICT DO NOTHING` on the one id) and all of them read back that same row.
 */
export async function loadVapidKeys(db: Database, push: Config['push']): Promise<VapidKeys> {
  if (push.keys) return push.keys;
  const proposed = webpush.generateVAPIDKeys();
  await db.insert(vapidKeys).values({ id: 1, ...proposed }).onConflictDoNothing({ target: vapidKeys.id });
  const [row] = await db
    .select({ publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey })
    .from(vapidKeys)
    .where(eq(vapidKeys.id, 1));
  if (!row) throw new Error('VAPID keys: the row just inserted is missing');
  return row;
}
