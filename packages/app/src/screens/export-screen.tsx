import { PlannedScreen } from '../layout/planned-screen.tsx';

export function ExportScreen() {
  return (
    <PlannedScreen
      title="Export"
      purpose="Exporting bills with your tags, positions and annotations will be done here."
      backHref="/tabs/more"
    />
  );
}
