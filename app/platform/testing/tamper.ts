/**
 * A token with one character changed in the middle of its last segment (a JWT's signature, the
 * whole of an opaque or masked token): six bits that count. Changing the last characters instead
 * can touch only the padding bits of base64url's final character, which decoders ignore, so that
 * the "tampered" token still decodes to the same bytes and passes (a test that fails now and then).
 */
export function tamper(token: string): string {
  const start = token.lastIndexOf(".") + 1;
  const i = start + Math.floor((token.length - start) / 2);
  return token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
}
