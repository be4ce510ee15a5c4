/**
 * The variables pig launches an extension process with (child-env.ts sets them). In a file of
 * their own, with no imports, so the runner can read them before it loads anything else.
 */
export const ENV_SOCKET = "PIG_EXT_SOCKET";
export const ENV_TOKEN = "PIG_EXT_TOKEN";
export const ENV_PROTOCOL = "PIG_EXT_PROTOCOL";
