// The bounds of a token claim the service stores or logs, checked where the claim is read.
import { controlCharacter } from '../validation/control-characters.ts';

/** The columns that keep a claim (`creator`, `changedBy`) are `varchar(255)`. */
export const MAX_CLAIM_LENGTH = 255;

/**
 * Whether a claim is a text the service can keep and compare: not empty, at most 255 UTF-16 units (so at most 255
 * characters for PostgreSQL), well-formed (a lone surrogate would be stored as U+FFFD, no longer equal to the claim)
 * and without a control character (NUL ends a PostgreSQL text, and none of them has a place in an identifier).
 */
export function isBoundedClaim(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CLAIM_LENGTH
    && value.isWellFormed() && !controlCharacter.test(value);
}
