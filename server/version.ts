import pkg from "../package.json" with { type: "json" };

/** Photodrop's version, from package.json (the compiled server carries it in its bundle). */
export const VERSION: string = pkg.version;
