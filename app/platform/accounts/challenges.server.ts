/**
 * Single-use, short-lived challenges (decision 072): the pending second step of a sign-in (the
 * password was right, a code or a passkey is owed) and WebAuthn's registration and sign-in
 * challenges. The browser holds a random id in its signed cookie; the row holds its SHA-256. A
 * challenge is taken by one conditional update, so it works once: a copy of the cookie replayed
 * after the step, or a step skipped, finds nothing.
 */
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { signInChallenges } from "../../../db/schema";
import { now } from "../core/clock.server";
import { sha256 } from "../core/crypto.server";
import { randomToken } from "../core/ids.server";

export type ChallengePurpose = (typeof signInChallenges.$inferSelect)["purpose"];

/** A pending second step lasts 10 minutes and allows 5 wrong codes; a WebAuthn ceremony 5 minutes. */
export const CHALLENGE_TTL_MS = { SECOND_STEP: 10 * 60_000, PASSKEY_REGISTER: 5 * 60_000, PASSKEY_SIGN_IN: 5 * 60_000 };
export const SECOND_STEP_MAX_FAILURES = 5;

/** A new challenge; returns the id the browser keeps. Old rows (expired) are removed on the way. */
export async function createChallenge(
  db: Db,
  input: { purpose: ChallengePurpose; accountId: string | null; challenge?: string },
): Promise<string> {
  const id = randomToken(24);
  const t = now();
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, new Date(t.getTime() - 3600_000)));
  await db.insert(signInChallenges).values({
    idHash: sha256(id),
    purpose: input.purpose,
    accountId: input.accountId,
    challenge: input.challenge ?? "",
    createdAt: t,
    expiresAt: new Date(t.getTime() + CHALLENGE_TTL_MS[input.purpose]),
  });
  return id;
}

const live = (id: string, purpose: ChallengePurpose) =>
  and(
    eq(signInChallenges.idHash, sha256(id)),
    eq(signInChallenges.purpose, purpose),
    isNull(signInChallenges.usedAt),
    gt(signInChallenges.expiresAt, now()),
    lt(signInChallenges.failures, SECOND_STEP_MAX_FAILURES),
  );

/** The live challenge of an id, without taking it (a pending step survives a wrong code). */
export async function peekChallenge(db: Db, id: unknown, purpose: ChallengePurpose) {
  if (typeof id !== "string" || !id) return null;
  const [row] = await db.select().from(signInChallenges).where(live(id, purpose));
  return row ?? null;
}

/** Takes the challenge (once): the row, or null when it is unknown, used, expired or worn out by wrong codes. */
export async function takeChallenge(db: Db, id: unknown, purpose: ChallengePurpose) {
  if (typeof id !== "string" || !id) return null;
  const [row] = await db.update(signInChallenges).set({ usedAt: now() }).where(live(id, purpose)).returning();
  return row ?? null;
}

/** A wrong code for a pending step: counted; the fifth ends the step (the password must be given again). */
export async function failChallenge(db: Db, id: string): Promise<void> {
  await db
    .update(signInChallenges)
    .set({ failures: sql`${signInChallenges.failures} + 1` })
    .where(eq(signInChallenges.idHash, sha256(id)));
}
