import type { Business } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import type { UserContext } from "./session.server";

/** The business of a merchant (or a developer's sandbox); an account without one cannot act on it. */
export function requireBusiness(user: UserContext): Business {
  if (!user.business) throw new ApiError(403, "This account has no business");
  return user.business;
}
