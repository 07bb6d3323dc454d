"""New module for handling data processing."""

from typing import List


class DataProcessor:
    def __init__(self, data: List[str]):
        self.data = data

    def process(self) -> List[str]:
        return [item.strip() for item in self.data]
