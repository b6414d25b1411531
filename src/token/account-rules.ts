/** What a username may be: checked by the API and for ADMIN_USERNAME alike. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const USERNAME_RULE = 'must be 1-64 letters, digits, dots, dashes or underscores';

/** The shortest password a user may have: checked by the API, the command line and ADMIN_PASSWORD alike. */
export const PASSWORD_MIN_LENGTH = 12;

export const PASSWORD_TOO_SHORT = `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
