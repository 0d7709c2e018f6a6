/**
 * Passwords nobody should choose: the 49,233 most common passwords of zxcvbn-ts's maintained
 * dictionary (`@zxcvbn-ts/language-common`, drawn from leaked-password corpora), compared without
 * regard to case. Loaded once, on first use.
 */
import { dictionary } from "@zxcvbn-ts/language-common";

let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary.passwords as string[]).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  "is one of the most common passwords; choose another (a few unrelated words work well)";

export const MIN_PASSWORD_LENGTH = 8;

/** What is wrong with a new password (said after "password: "), or null: the rules every account creation applies. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  return null;
}
