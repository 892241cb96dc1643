import { useState } from 'react';
import { readSessionJson, writeSessionJson } from '../../../lib/storage';
import { browserZone, type ZoneChoice } from '../utils/schedule-zone';

const ZONE_KEY = 'store.schedules.zone';

/** The reader's choice of zone on the schedules pages, kept for this tab's session. */
export function useZoneChoice(): [ZoneChoice, (next: ZoneChoice) => void] {
  const [choice, setChoice] = useState<ZoneChoice>(
    () => readSessionJson<ZoneChoice>(ZONE_KEY) ?? 'schedule',
  );
  return [
    choice,
    (next) => {
      writeSessionJson(ZONE_KEY, next);
      setChoice(next);
    },
  ];
}

export interface ZoneSwitchProps {
  value: ZoneChoice;
  onChange: (next: ZoneChoice) => void;
  /** The schedule's zone by name, or undefined where each row has its own (the overview). */
  scheduleZone?: string | undefined;
}

/** "Show times in: ( ) the schedule's zone (Europe/Berlin) ( ) this browser's zone (…)". */
export function ZoneSwitch({ value, onChange, scheduleZone }: ZoneSwitchProps) {
  const browser = browserZone();
  return (
    <fieldset className="zone-switch">
      <legend>Show times in</legend>
      <label className="radio">
        <input
          type="radio"
          name="schedule-zone"
          checked={value === 'schedule'}
          onChange={() => onChange('schedule')}
        />
        {scheduleZone === undefined
          ? "each schedule's zone"
          : `the schedule's zone (${scheduleZone})`}
      </label>
      <label className="radio">
        <input
          type="radio"
          name="schedule-zone"
          checked={value === 'browser'}
          onChange={() => onChange('browser')}
        />
        this browser&apos;s zone ({browser})
      </label>
    </fieldset>
  );
}
