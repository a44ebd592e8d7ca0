import { z } from "zod";
import { SUPPORTED_LANGUAGES } from "./languages";

const UNKNOWN_LANGUAGE = `Language must be one of ${SUPPORTED_LANGUAGES.join(", ")}`;

/** A language of the client's side, as the studio's and a project's settings take it. */
export const languageSchema = z.enum(SUPPORTED_LANGUAGES, { error: UNKNOWN_LANGUAGE });
