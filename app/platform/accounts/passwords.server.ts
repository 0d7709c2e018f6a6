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

export const COMMON_PASSWORD_MESSAGE = "is one of the most common passwords; choose another (a few unrelated words work well)";
