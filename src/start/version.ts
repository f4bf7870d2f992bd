/** This runtime's version (package.json `version`). */
export const VERSION = '0.1.0';
