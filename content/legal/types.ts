/** One numbered section of a legal page (privacy policy, terms of use, purposes of use). */
export interface LegalSection {
  heading: string;
  paragraphs: string[];
  /** Optional bullet list shown after the paragraphs. */
  items?: string[];
}

/** A complete legal page, rendered by /privacy, /terms and /purpose. */
export interface LegalDocument {
  title: string;
  /** Last revision date, YYYY-MM-DD. */
  updatedAt: string;
  intro: string[];
  sections: LegalSection[];
}
