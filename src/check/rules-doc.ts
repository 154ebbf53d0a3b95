import { rules } from './rules.js';

export const rulesDocMarkers = {
  start: '<!-- check-rules:start (generated from the rule table: npm run docs:rules) -->',
  end: '<!-- check-rules:end -->',
} as const;

const indented = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

/** The list of `check` rules in docs/rules.md, written from the rule table so the two cannot drift. */
export function renderRulesDoc(): string {
  const table = [
    '| rule | severity | what it finds |',
    '| --- | --- | --- |',
    ...rules.map((rule) => `| [\`${rule.id}\`](#${rule.id}) | ${rule.severity} | ${rule.summary.replace(/\|/g, '\\|')} |`),
  ];
  const entries = rules.map((rule) =>
    [
      `#### \`${rule.id}\``,
      '',
      `**${rule.severity}**: ${rule.summary}.`,
      '',
      'Breaks it:',
      '',
      indented(rule.bad),
      '',
      'Does not:',
      '',
      indented(rule.good),
      ...(rule.options?.baseline ? ['', 'Checked with `--baseline` of this baseline:', '', indented(JSON.stringify({ servers: rule.options.baseline }))] : []),
      ...(rule.source ? ['', `Source: [${rule.source.title}](${rule.source.url})`] : []),
    ].join('\n'),
  );
  return [rulesDocMarkers.start, '', ...table, '', ...entries.flatMap((entry) => [entry, '']), rulesDocMarkers.end].join('\n');
}

/** Puts the generated list between the markers of docs/rules.md. */
export function withRulesDoc(readme: string): string {
  const start = readme.indexOf(rulesDocMarkers.start);
  const end = readme.indexOf(rulesDocMarkers.end);
  if (start === -1 || end === -1) return readme;
  return readme.slice(0, start) + renderRulesDoc() + readme.slice(end + rulesDocMarkers.end.length);
}
