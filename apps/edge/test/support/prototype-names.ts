/** Names every plain object inherits: a closed set must refuse each of them. */
export const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"] as const;
