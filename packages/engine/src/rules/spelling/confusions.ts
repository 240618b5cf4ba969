// Phrases that are always a slip for another one.
export const confusions: ReadonlyMap<string, string> = new Map([
  ['should of', 'should have'],
  ['could of', 'could have'],
  ['would of', 'would have'],
  ['must of', 'must have'],
  ['might of', 'might have'],
  ['alot', 'a lot'],
  ['per say', 'per se'],
  ['for all intensive purposes', 'for all intents and purposes'],
  ['sneak peak', 'sneak peek'],
  ['free reign', 'free rein'],
  ['case and point', 'case in point'],
  ['one in the same', 'one and the same'],
  ['baited breath', 'bated breath'],
  ['deep seeded', 'deep-seated'],
  ['nip it in the butt', 'nip it in the bud'],
  ['your welcome', "you're welcome"],
  ['more then', 'more than'],
  ['less then', 'less than'],
  ['better then', 'better than'],
  ['rather then', 'rather than'],
  ['other then', 'other than'],
  ['loose weight', 'lose weight'],
  ['make due', 'make do'],
  ['irregardless', 'regardless'],
]);

/** The confused phrases as word lists, indexed by their last word. */
export const phrasesByLastWord: ReadonlyMap<string, readonly string[][]> = (() => {
  const index = new Map<string, string[][]>();
  for (const phrase of confusions.keys()) {
    const words = phrase.split(' ');
    const last = words[words.length - 1] ?? '';
    index.set(last, [...(index.get(last) ?? []), words]);
  }
  return index;
})();
