import { useParams } from 'react-router-dom';
import { PlannedScreen } from '../layout/planned-screen.tsx';

/** /add-dataset adds a dataset; /add-dataset/:id edits an existing one. */
export function AddDatasetScreen() {
  const { id } = useParams();
  return id === undefined ? (
    <PlannedScreen
      title="Add dataset"
      purpose="A form to add a dataset of bills from files or a URL will be here."
      backHref="/tabs/datasets"
    />
  ) : (
    <PlannedScreen
      title="Edit dataset"
      purpose="A form to change this dataset and import it again will be here."
      backHref="/tabs/datasets"
    />
  );
}
