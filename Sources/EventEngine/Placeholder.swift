// EventEngine
