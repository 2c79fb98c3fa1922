/**
 * Ways a conversation's lease bookkeeping (the lease record and the fencing counter) can be found
 * damaged: by a foreign writer, a bad migration, a manual edit or a restore from an old backup.
 * A store heals every one of them on the next `acquireLease`, keeps fencing tokens growing past
 * the damage, and never lets the damage block the conversation.
 */
export type LeaseDamage =
  /** The fencing counter holds text that is not a number (`'abc'`). */
  | 'counter-not-a-number'
  /** The fencing counter is below zero. */
  | 'counter-negative'
  /** The fencing counter is beyond what a token can be (above 2^53, or the column's maximum). */
  | 'counter-out-of-range'
  /** The fencing counter is gone (or zero) while the lease record still names a token. */
  | 'counter-lost'
  /** The fencing counter's key holds another type (a Redis hash). */
  | 'counter-wrong-type'
  /** The lease record is not one the store wrote (`'garbage'`, a negative token), with an expiry. */
  | 'lease-unreadable'
  /** The lease record never expires (no expiry, or `infinity`). */
  | 'lease-never-expires'
  /** The lease record names a token the counter never granted, with an expiry a minute away. */
  | 'lease-not-granted'
  /** The lease record's key holds another type (a Redis list). */
  | 'lease-wrong-type';

/** Every {@link LeaseDamage}, with what it means, in the order the conformance cases try them. */
export const LEASE_DAMAGES: readonly { damage: LeaseDamage; description: string }[] = [
  { damage: 'counter-not-a-number', description: 'a fencing counter that is not a number' },
  { damage: 'counter-negative', description: 'a negative fencing counter' },
  { damage: 'counter-out-of-range', description: 'a fencing counter beyond any token' },
  { damage: 'counter-lost', description: 'a fencing counter lost while the lease record remains' },
  { damage: 'counter-wrong-type', description: 'a fencing counter of another type' },
  { damage: 'lease-unreadable', description: 'an unreadable lease record' },
  { damage: 'lease-never-expires', description: 'a lease record that never expires' },
  { damage: 'lease-not-granted', description: 'a lease record with a token never granted' },
  { damage: 'lease-wrong-type', description: 'a lease record of another type' },
];
