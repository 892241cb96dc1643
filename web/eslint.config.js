// The repository's lint setup plus the console's import boundaries (STYLE.md, "Where things
// live"): app → features → shared (components/, lib/), never feature → feature, never upwards.
import root from '../eslint.config.js';

const upward = {
  group: ['**/app/**', '**/features/**'],
  message: 'Shared code (components/, lib/) must not import app/ or features/.',
};
const intoApp = { group: ['**/app/**'], message: 'Features must not import app/.' };
const otherFeature = (depth) => ({
  // From features/<x>/ at this depth, "../" * depth lands in features/: a sibling feature.
  regex: `^${'\\.\\./'.repeat(depth)}(?!\\.\\./)[^/]+`,
  message:
    'A feature must not import another feature; move what they share to components/ or lib/.',
});

export default [
  ...root,
  {
    files: ['src/components/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [upward] }] },
  },
  ...[1, 2, 3].map((depth) => ({
    files: [`src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [intoApp, otherFeature(depth)] }],
    },
  })),
];
