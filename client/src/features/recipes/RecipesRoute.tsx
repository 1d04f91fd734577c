import { Route, Routes } from 'react-router-dom';
import { NotFound } from '../../components/ErrorView.tsx';
import { RecipeEditorPage } from './RecipeEditor.tsx';
import { RecipeList } from './RecipeList.tsx';
import { RecipePageView } from './RecipePageView.tsx';
import { RecipePrinterView } from './RecipePrinterView.tsx';
import { RecipeSettingsPage } from './RecipeSettingsPage.tsx';
import { RecipeStepsView } from './RecipeStepsView.tsx';
import './recipes.css';

/** /personal/recipes and its sub-paths (the row's pattern is /personal/recipes/*). */
export default function RecipesRoute() {
  return (
    <Routes>
      <Route index element={<RecipeList />} />
      <Route path="settings" element={<RecipeSettingsPage />} />
      <Route path="new" element={<RecipeEditorPage />} />
      <Route path="edit/:id" element={<RecipeEditorPage />} />
      <Route path="page/:id" element={<RecipePageView />} />
      <Route path="steps/:id" element={<RecipeStepsView />} />
      <Route path="printer/:id" element={<RecipePrinterView />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
