import { createContext, useContext } from "react";

/** The per-response CSP nonce of inline scripts (set by entry.server; empty in the browser). */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
