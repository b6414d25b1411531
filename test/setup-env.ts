// Quiet logs in tests unless a run asks for them.
process.env.LOG_LEVEL ??= 'silent';
