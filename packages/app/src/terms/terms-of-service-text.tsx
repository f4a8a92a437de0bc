import { TERMS_VERSION, type TermsViewer } from '@docket/protocol/terms';

interface TermsSection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

const commonSections: readonly TermsSection[] = [
  {
    heading: 'What Docket is',
    paragraphs: [
      'Docket helps you track legislation: you import bills from public sources, triage, tag and annotate them, and share what you choose. These terms apply when you use Docket and its sync service.',
    ],
  },
  {
    heading: 'Your data',
    paragraphs: [
      'Your tags, positions, annotations, datasets and settings are yours. They are kept on your device first. When you sign in, Docket syncs them to the Docket server encrypted with a key derived from your cloud password; the server stores ciphertext it cannot read.',
      'If you lose your cloud password and have no other device that knows it, the operator cannot recover your synced data. Keep your own full backups.',
    ],
  },
  {
    heading: 'Your account',
    paragraphs: [
      'You sign in with an e-mail address and a password. Keep them to yourself; you are responsible for what is done with your account.',
    ],
  },
  {
    heading: 'Acceptable use',
    paragraphs: [
      'Do not use Docket to break the law, to attack the service or other users, or to publish material you have no right to share through public links. Public links are readable by anyone who has them; you decide what they contain and may revoke them.',
    ],
  },
  {
    heading: 'Bill information',
    paragraphs: [
      'Bill texts, statuses and votes come from the sources you import and may be incomplete, late or wrong. Docket is a working tool, not an official record or legal advice: check what matters against the official source.',
    ],
  },
  {
    heading: 'Availability and liability',
    paragraphs: [
      'Docket is provided as it is. The sync service may be interrupted or changed. To the extent the law allows, the operator is not liable for indirect losses or for data you did not back up.',
    ],
  },
  {
    heading: 'Changes to these terms',
    paragraphs: [
      'When these terms change materially they get a new version, and Docket asks you to accept it before you continue to sync.',
    ],
  },
];

const storeSections: Readonly<Record<TermsViewer, TermsSection | null>> = {
  web: null,
  ios: {
    heading: 'Apple App Store',
    paragraphs: [
      "These terms are between you and Docket's operator, not Apple. Apple is not responsible for the app, its content, maintenance or support, or for any claim about it. Your use of the app must also follow the App Store's Usage Rules. Apple and its subsidiaries are third-party beneficiaries of these terms and may enforce them.",
    ],
  },
  android: {
    heading: 'Google Play',
    paragraphs: [
      "These terms are between you and Docket's operator, not Google. Google is not responsible for the app or its support. Your use of the app must also follow the Google Play Terms of Service.",
    ],
  },
};

/** The terms as shown to one viewer; sections start at heading level 2 under the page's h1. */
export function TermsOfServiceText({ viewer }: { readonly viewer: TermsViewer }) {
  const store = storeSections[viewer];
  const sections = store === null ? commonSections : [...commonSections, store];
  return (
    <article className="terms-text" aria-label="Terms of service">
      <p className="terms-version">Version {TERMS_VERSION}</p>
      {sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
