// Which secrets sign a delivery: the current one, and during the grace period after a rotation
// the previous one too (newest first, one `v1=` each), so a partner can switch its verifier to the
// new secret at any moment of those 24 hours without rejecting a single delivery.
import type { SecretBox } from '../../infra/secrets.js';

export const ROTATION_GRACE_HOURS = 24;

export interface SealedSecrets {
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export function signingSecretsOf(row: SealedSecrets, box: SecretBox, now = new Date()): string[] {
  const secrets = [box.open(row.secret_sealed)];
  if (row.previous_secret_sealed !== null && row.previous_secret_expires_at !== null && new Date(row.previous_secret_expires_at) > now) {
    secrets.push(box.open(row.previous_secret_sealed));
  }
  return secrets;
}
