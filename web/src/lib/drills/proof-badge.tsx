import { Badge } from '../../components/ui/badge';
import { drillOutcomeWords, proofState, type ProofRecords } from './proof-words';

/**
 * "Proven 2 h ago" / "Never proven" / "Last drill failed …" as a badge, its newest drill's words
 * in the title (and as text for screen readers through the badge's own words).
 */
export function ProofBadge({ proof, now }: { proof: ProofRecords; now: number }) {
  const state = proofState(proof, now);
  const detail = proof.lastDrill ? drillOutcomeWords(proof.lastDrill) : 'No drill has run yet';
  return (
    <span className="proof-badge" title={detail} data-proof={state.kind}>
      <Badge tone={state.tone}>{state.words}</Badge>
    </span>
  );
}
