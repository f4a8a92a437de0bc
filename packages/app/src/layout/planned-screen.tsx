import { PageBody } from './page-body.tsx';
import { PageHeader } from './page-header.tsx';

export interface PlannedScreenProps {
  readonly title: string;
  /** One sentence on what the screen will hold once it is built. */
  readonly purpose: string;
  readonly backHref?: string;
}

/** A screen whose features come in a later issue: its title and what it will hold, no more. */
export function PlannedScreen({ title, purpose, backHref }: PlannedScreenProps) {
  return (
    <>
      <PageHeader title={title} {...(backHref === undefined ? {} : { backHref })} />
      <PageBody>
        <h1>{title}</h1>
        <p>{purpose}</p>
      </PageBody>
    </>
  );
}
