/** A form's failure, read out as it appears (role="alert"); nothing while there is none. */
export function FormError({ message }: { readonly message: string | null }) {
  if (message === null) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
