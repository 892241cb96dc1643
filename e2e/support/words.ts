import type { Page } from '@playwright/test';

/**
 * The words on screen split across two lines ("Unchan-/ged" with no hyphen): every run of four
 * to 24 letters whose box spans more than one line (a longer run, a 128-character name without
 * a space, must break to fit). Ids, code and values (monospace) may break
 * anywhere on purpose and are left out, as is text hidden from sight.
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.mono, code, pre, .visually-hidden, [hidden]')) continue;
      if (parent.getClientRects().length === 0) continue;
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\p{L}{4,}/gu)) {
        if (match[0].length > 24) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(
          Array.from(range.getClientRects())
            .filter((rect) => rect.width > 0)
            .map((rect) => Math.round(rect.top)),
        );
        if (lines.size > 1) out.push(match[0]);
      }
    }
    return out;
  });
}
