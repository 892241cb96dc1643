import type { SchemaPageSection } from '../../../components/schema/schema-section';
import { DeadLettersSection } from './dead-letters-section';
import { ReplaySection } from './replay-section';

/** The dead letters' two sections of a tree's schema page, below the schema's own. */
export const deadLetterSections: readonly SchemaPageSection[] = [
  {
    id: 'dead-letters',
    title: 'Dead letters',
    render: (treeId) => <DeadLettersSection treeId={treeId} />,
  },
  { id: 'replay', title: 'Fix and replay', render: (treeId) => <ReplaySection treeId={treeId} /> },
];
