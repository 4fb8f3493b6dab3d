import type { ReactElement } from 'react';
import type { CustomContainerComponent, CustomItemComponent } from 'virtua';

/**
 * virtua's Virtualizer for happy-dom, which lays nothing out: virtua would mount only the rows
 * its size estimate fits in a view of no height. This one mounts every row, in the containers
 * the transcript gives it, so a test sees the whole transcript. The real one runs in the e2e
 * tests. Use: `vi.mock('virtua', () => import('@/tests/helpers/every-row-virtualizer'))`.
 */
export function Virtualizer<T>({
  data,
  children,
  as: List,
  item: Item,
}: {
  data: ArrayLike<T>;
  children: (row: T, index: number) => ReactElement;
  as: CustomContainerComponent;
  item: CustomItemComponent;
}) {
  return (
    <List style={{}}>
      {Array.from(data, (row, index) => {
        const element = children(row, index);
        return (
          <Item key={element.key ?? index} style={{}} index={index}>
            {element}
          </Item>
        );
      })}
    </List>
  );
}
