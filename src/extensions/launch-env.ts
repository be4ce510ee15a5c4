/**
 * The variables pig launches an extension process with (child-env.ts sets them). In a file of
 * their own, with no imports, so the runner can read them before it loads anything else.
 */
export const ENV_SOCKET = "PIG_EXT_SOCKET";
export const ENV_TOKEN = "PIG_EXT_TOKEN";
export const ENV_PROTOCOL = "PIG_EXT_PROTOCOL";
/**
 * The exit status of an extension process that refused the socket it was given because the
 * process at the other end is not of its own user (docs/extension-protocol.md §2): 77, as
 * sysexits' EX_NOPERM.
 */
export const EXIT_HOST_REFUSED = 77;
