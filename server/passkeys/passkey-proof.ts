import type { AppContext } from "../context";
import { HttpError, NotFoundError, type FieldErrors } from "../http/errors";
import { findUserRow } from "../users/users.repository";
import { proofFailure } from "../two-factor/two-factor.service";

const refused = (message: string, errors: FieldErrors) => new HttpError(403, message, errors);

/**
 * A passkey signs in alone, so adding one asks again who is there: a session left open (or a
 * stolen access token) must not be enough to plant a lasting way in. 403 for a wrong proof.
 */
export async function proveItIsTheUser(
  ctx: AppContext,
  uid: string,
  proof: { code?: string; password?: string },
): Promise<void> {
  const row = await findUserRow(ctx.db, uid);
  if (!row) throw new NotFoundError("User not found");
  const failure = await proofFailure(ctx, uid, row.password_hash, proof);
  if (failure === "wrong code") throw refused("The code is not right", { code: "Wrong or already used code" });
  if (failure === "no password")
    throw refused("This account has no password: turn on two-factor sign-in and give a code instead", {
      password: "This account has no password",
    });
  if (failure) throw refused("The password is not right", { password: "Wrong password" });
}
