import type { ReactNode, Ref } from 'react';

/**
 * The frame of both highlight forms (new and saved): a form named by its heading, whose submit
 * runs `onSubmit` without the browser's own checks or navigation.
 */
export function AnnotationForm({
  headingId,
  heading,
  onSubmit,
  children,
  formRef,
}: {
  readonly headingId: string;
  readonly heading: string;
  readonly onSubmit: () => void;
  readonly children: ReactNode;
  readonly formRef?: Ref<HTMLFormElement> | undefined;
}) {
  return (
    <form
      ref={formRef}
      className="annotation-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 id={headingId}>{heading}</h2>
      {children}
    </form>
  );
}
