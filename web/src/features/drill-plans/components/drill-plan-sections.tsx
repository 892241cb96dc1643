import type { SchedulePageSection } from '../../../components/schedules/scope-section';
import { DrillPlansSection } from './drill-plans-section';

/** The drill plans' section of a scope's schedules page, below the schedules' own. */
export const drillPlanSections: readonly SchedulePageSection[] = [
  {
    id: 'drill-plans',
    render: (scope, zone) => <DrillPlansSection scope={scope} zone={zone} />,
  },
];
