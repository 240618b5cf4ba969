// Writes the English spell checker's expanded word list next to the built engine, so that each
// scan loads it instead of expanding the Hunspell dictionary again (see rules/spelling/dictionary.ts).
const { writeSnapshot } = await import('../packages/engine/dist/rules/spelling/dictionary.js');
writeSnapshot();
